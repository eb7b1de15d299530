/* workload_view.c — a workload as the rules and the report see it (workload_to_view, with the
 * sentence saying whether it is a job or capacity) and the list of every field documentation is
 * made from (workload_fields_to_view), both walking the field tables. */
#include "workload_private.h"

#include <math.h>
#include <string.h>

static void view_fields(view *map, const workload_field *fields, const workload *w)
{
    for (const workload_field *f = fields; f->name; f++) {
        const void *slot = (const char *)w + f->at;
        switch (f->type) {
        case FIELD_NUMBER:
            view_map_set_num(map, f->name, *(const double *)slot);
            break;
        case FIELD_TEXT:
        case FIELD_FILE:
            view_map_set_str(map, f->name, *(char *const *)slot);
            break;
        case FIELD_CURRENCY:
            view_map_set_str(map, f->name, (const char *)slot);
            break;
        case FIELD_BOOL:
            view_map_set_bool(map, f->name, *(const int *)slot);
            break;
        case FIELD_NAMES: {
            char *const *names = *(char **const *)slot;
            if (!names) {
                view_map_set(map, f->name, view_null());
                break;
            }
            view *list = view_map_set(map, f->name, view_list());
            size_t count = *(const size_t *)((const char *)w + f->count_at);
            for (size_t i = 0; i < count; i++)
                view_list_push(list, view_string(names[i]));
            break;
        }
        case FIELD_TABLE:
            view_fields(view_map_set(map, f->name, view_map()), f->fields, w);
            break;
        }
    }
}

void workload_need_words(gw_buf *b, const workload *w, const char *on_name, const char *on_speed)
{
    buf_printf(b, "%g hours a month ", w->hours_needed_per_month);
    if (w->hours_needed_on)
        buf_printf(b, "on %s (%s%seach option costed for the hours that work takes at its own "
                      "speed)",
                   on_name ? on_name : w->hours_needed_on, on_speed ? on_speed : "",
                   on_speed ? " on it; " : "");
    else
        buf_printf(b, "of each option's own card (a faster card does more work in them: compare "
                      "the cost per %s; name the card the need was measured on with "
                      "hours_needed_on)",
                   workload_is_llm(w) ? "1M tokens" : "unit of work");
}

/* The sentence every report carries: which kind of workload this is and what that means for
 * the costs. */
static void workload_describe_kind(gw_buf *b, const workload *w)
{
    gw_buf hours = GW_BUF_INIT;
    view_format_number(&hours, workload_hours_available(w), 0);
    if (workload_is_job(w)) {
        buf_printf(b, "A job: %g run%s of ", w->work_runs, w->work_runs == 1 ? "" : "s");
        if (!isnan(w->work_samples)) {
            view_format_number(b, w->work_samples, 0);
            buf_puts(b, " samples");
        } else if (!isnan(w->work_tokens)) {
            view_format_number(b, w->work_tokens, 0);
            buf_puts(b, strcmp(w->task, "inference") ? " tokens trained on"
                                                     : " tokens generated");
        } else {
            buf_printf(b, "%g h on %s", w->work_hours, w->work_hours_on);
        }
        if (!isnan(w->deadline_days))
            buf_printf(b, ", due within %g days", w->deadline_days);
        else
            buf_printf(b, ", due within the %g-month horizon", w->horizon_months);
        buf_printf(b, " (%s h of running at %g h a day). An option that cannot finish in those "
                      "hours is out; a rental is paid for the hours the runs take, a purchase "
                      "pays its electricity for those hours and its hardware less resale.",
                   buf_cstr(&hours), w->hours_per_day);
    } else if (workload_has_need(w)) {
        buf_puts(b, "Capacity for a stated need: ");
        workload_need_words(b, w, NULL, NULL);
        buf_printf(b, ", for %g months, at most %g h a day; an option of n cards does n cards' "
                      "work in each hour it runs (at its scaling efficiency), so it is costed "
                      "for the hours the need takes on it, a rental paid for those alone, and "
                      "one that cannot cover the need in %s h is out.",
                   w->horizon_months, w->hours_per_day, buf_cstr(&hours));
    } else {
        buf_printf(b, "Capacity: the hardware is used %g h a day for %g months (%s h); buying "
                      "and renting are both costed for those hours.",
                   w->hours_per_day, w->horizon_months, buf_cstr(&hours));
    }
    buf_free(&hours);
}

view *workload_to_view(const workload *w)
{
    view *v = view_map();
    view_fields(v, workload_top_fields, w);
    view_map_set_str(v, "kind", workload_is_job(w) ? "job" : "capacity");
    gw_buf b = GW_BUF_INIT;
    workload_describe_kind(&b, w);
    view_map_set_str(v, "kind_text", buf_cstr(&b));
    buf_free(&b);
    return v;
}

static const char *const type_names[] = {
    [FIELD_NUMBER] = "number", [FIELD_TEXT] = "text",   [FIELD_CURRENCY] = "currency",
    [FIELD_BOOL] = "boolean",  [FIELD_NAMES] = "list of texts", [FIELD_TABLE] = "table",
    [FIELD_FILE] = "file",
};

/* tasks: the tasks of the table the fields are in (NULL: every task), which its fields share
 * unless they name their own. */
static void describe_fields(view *list, const char *prefix, const workload_field *fields,
                            const char *const *tasks)
{
    for (const workload_field *f = fields; f->name; f++) {
        if (f->type == FIELD_FILE)
            continue;
        const char *const *concerns = f->tasks ? f->tasks : tasks;
        view *d = view_list_push(list, view_map());
        view_map_set(d, "name", view_stringf("%s%s", prefix, f->name));
        view_map_set_str(d, "type", type_names[f->type]);
        view_map_set_bool(d, "required", f->required);
        if (f->type == FIELD_NUMBER) {
            view_map_set_num(d, "min", f->lo);
            view_map_set_bool(d, "min_excluded", f->lo_excluded);
            view_map_set_num(d, "max", f->hi);
        }
        if (workload_field_choice(f, 0)) {
            view *choices = view_map_set(d, "choices", view_list());
            for (size_t i = 0; workload_field_choice(f, i); i++)
                view_list_push(choices, view_string(workload_field_choice(f, i)));
        }
        view_map_set_str(d, "default", f->fallback);
        view_map_set_str(d, "unit", f->unit);
        gw_buf expected = GW_BUF_INIT;
        workload_describe_expected(&expected, f);
        view_map_set_str(d, "expected", buf_cstr(&expected));
        buf_free(&expected);
        view_map_set_str(d, "help", f->help);
        if (concerns) {
            view *names = view_map_set(d, "tasks", view_list());
            for (size_t i = 0; concerns[i]; i++)
                view_list_push(names, view_string(concerns[i]));
        } else {
            view_map_set(d, "tasks", view_null());
        }
        if (f->type == FIELD_TABLE) {
            gw_buf sub = GW_BUF_INIT;
            buf_printf(&sub, "%s%s.", prefix, f->name);
            describe_fields(list, buf_cstr(&sub), f->fields, concerns);
            buf_free(&sub);
        }
    }
}

view *workload_fields_to_view(void)
{
    view *list = view_list();
    describe_fields(list, "", workload_top_fields, NULL);
    return list;
}
