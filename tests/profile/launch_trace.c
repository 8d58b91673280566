/* launch_trace.c - a CUDA injection library (CUDA_INJECTION64_PATH) that writes, one line each and
 * in the order the program calls them, its kernel launches, memsets and event records:
 *     launch <kernel symbol>
 *     memset <bytes>
 *     event <event handle>
 * make profile runs ./run once with it (at full speed: no counters) to find which launches make the
 * first timed run: the ones between the first two L2 flushes of common/timing.c (a memset of twice
 * the L2 size, then an event record). ncu then profiles exactly those (--launch-skip,
 * --launch-count), however many kernels a step launches per run (trace.awk reads the file).
 * The file: $LAB_LAUNCH_TRACE (nothing is written without it). Built by tests/profile/profile.mk
 * against CUPTI's callback API, which comes with the CUDA Toolkit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h> /* with generated_cuda_meta.h: the driver calls' parameter structs */

static FILE *trace;

static int starts_with(const char *s, const char *prefix)
{
    return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* cuMemsetD8/D16/D32 (and their Async, _v2, _ptsz forms) lay out their parameters alike:
 * destination, value, count; the element width is in the name. The 2D forms are left out. */
static size_t memset_bytes(const char *name, const void *params)
{
    const size_t count = ((const cuMemsetD8Async_params *)params)->N;
    if (starts_with(name, "cuMemsetD16"))
        return 2 * count;
    if (starts_with(name, "cuMemsetD32"))
        return 4 * count;
    return count;
}

static void CUPTIAPI on_driver_call(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    const void *data)
{
    const CUpti_CallbackData *call = (const CUpti_CallbackData *)data;
    const char *name = call->functionName;
    (void)userdata, (void)domain, (void)cbid;
    if (call->callbackSite != CUPTI_API_ENTER || trace == NULL)
        return;
    if (starts_with(name, "cuLaunch"))
        fprintf(trace, "launch %s\n", call->symbolName != NULL ? call->symbolName : "?");
    else if (starts_with(name, "cuMemsetD") && !starts_with(name, "cuMemsetD2D"))
        fprintf(trace, "memset %zu\n", memset_bytes(name, call->functionParams));
    else if (starts_with(name, "cuEventRecord"))
        fprintf(trace, "event %p\n", (void *)((const cuEventRecord_params *)call->functionParams)->hEvent);
}

static void close_trace(void)
{
    if (trace != NULL)
        fclose(trace);
    trace = NULL;
}

/* Called by the CUDA driver when it loads this library (CUDA_INJECTION64_PATH): 1 is success. */
int InitializeInjection(void)
{
    CUpti_SubscriberHandle subscriber;
    const char *path = getenv("LAB_LAUNCH_TRACE");
    if (path == NULL || path[0] == '\0')
        return 1;
    trace = fopen(path, "w");
    if (trace == NULL) {
        fprintf(stderr, "launch_trace: cannot write %s\n", path);
        return 0;
    }
    atexit(close_trace);
    if (cuptiSubscribe(&subscriber, on_driver_call, NULL) != CUPTI_SUCCESS ||
        cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS) {
        fprintf(trace, "error CUPTI refused the driver callbacks\n");
        close_trace();
        return 0;
    }
    return 1;
}
