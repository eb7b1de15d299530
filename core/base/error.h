/* error.h — errors as values.  Subsystems fill a gw_error and return its code; only main.c
 * prints the message and turns the code into the process exit status (sysexits.h values). */
#ifndef GW_ERROR_H
#define GW_ERROR_H

#include <stdarg.h>

enum {
    GW_OK = 0,
    GW_FAILED = 2,       /* the command ran but its verdict is negative (a failed check) */
    GW_NO_OPTION = 3,    /* a decision ran and no option is feasible: its output is still
                          * written */
    GW_EUSAGE = 64,      /* bad command line */
    GW_EDATA = 65,       /* malformed input data */
    GW_ENOINPUT = 66,    /* input file missing or unreadable */
    GW_ENOTFOUND = 67,   /* a name that matches nothing (EX_NOUSER: "addressee unknown") */
    GW_EUNAVAILABLE = 69,/* a needed external program is not there */
    GW_ESOFTWARE = 70,   /* internal error, or a plugin that broke its contract */
    GW_ECANTCREAT = 73,  /* output file cannot be created */
    GW_EIO = 74,         /* read or write failed (disk full, ...) */
    GW_EBUSY = 75,       /* the KB is locked by another writer (EX_TEMPFAIL) */
    GW_ECONFIG = 78,     /* configuration (plugin folder, template) is wrong */
    GW_EINTR_INT = 130,  /* interrupted by SIGINT */
    GW_EINTR_TERM = 143  /* interrupted by SIGTERM */
};

typedef struct gw_error {
    int code;
    char msg[1024];
} gw_error;

/* Sets err (when not NULL) and returns code, so callers can `return gw_error_set(...)`. */
int gw_error_set(gw_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int gw_error_vset(gw_error *err, int code, const char *fmt, va_list ap);

/* Puts "prefix: " in front of an error already set (keeps its code). */
void gw_error_prefix(gw_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void gw_error_clear(gw_error *err);

#endif
