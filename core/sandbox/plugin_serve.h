/* plugin_serve.h — private to the plugin host: the worker's side of its channel
 * (plugin_serve.c).  plugin.c forks a worker (worker.h) that runs plugin_serve. */
#ifndef GW_PLUGIN_SERVE_H
#define GW_PLUGIN_SERVE_H

/* The worker's main loop, a worker_main_fn: reads requests on fd and sends one reply each (and
 * the request's result as a message of its own) until the channel closes; then frees every
 * plugin state and returns 0.  limits: the const plugin_limits * (plugin_kinds.h) every state
 * of this worker gets. */
int plugin_serve(int fd, void *limits);

#endif
