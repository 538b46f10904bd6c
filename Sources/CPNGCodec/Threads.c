#define _GNU_SOURCE
#include "CPNGCodec.h"

#include <sched.h>

/* Linux tends to queue a new thread on its creator's CPU and move it to an idle one only at the
   next balancing, 1-3 ms later here in half of the runs: as long as the helper's whole task in a
   15 ms render. Allowed only the other CPUs, it starts within 0.1 ms. A process allowed one CPU
   (taskset, a one-CPU container) gets a thread like any other. */
int hl_thread_start_elsewhere(pthread_t *thread, void *(*body)(void *), void *argument) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return pthread_create(thread, NULL, body, argument);
    cpu_set_t cpus;
    int here = sched_getcpu();
    if (here >= 0 && here < CPU_SETSIZE && sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 1
        && CPU_ISSET(here, &cpus)) {
        CPU_CLR(here, &cpus);
        pthread_attr_setaffinity_np(&attributes, sizeof cpus, &cpus);
    }
    int status = pthread_create(thread, &attributes, body, argument);
    pthread_attr_destroy(&attributes);
    return status;
}
