// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_log R1@55 W2@81
/*
 * Asynchronous logger: callers queue lines; a flusher thread (C11 threads)
 * writes them to the sink every FLUSH_AT lines, FLUSH_MS ms, or at exit.
 *
 * Bug: main queues its first line before it installs g_log.sink; a periodic
 * flush that runs first loads a NULL sink and crashes writing the line.
 */
#include <stdio.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#define QLEN 8
#define LINE 64
#define FLUSH_AT 4
#define FLUSH_MS 20L

struct sink { void (*write)(const char *line); };
struct logger {
    struct sink *sink;
    mtx_t lock;
    cnd_t nonempty;
    char queue[QLEN][LINE];
    int head, count, done;
};

static struct logger g_log;

static void stdout_write(const char *line)
{
    printf("[log] %s\n", line);
}
static struct sink stdout_sink = { stdout_write };

static int flusher(void *arg)
{
    char line[LINE];
    struct timespec deadline;
    (void)arg;
    mtx_lock(&g_log.lock);
    while (!g_log.done || g_log.count > 0) {
        timespec_get(&deadline, TIME_UTC);
        deadline.tv_sec += (deadline.tv_nsec += FLUSH_MS * 1000000) / 1000000000;
        deadline.tv_nsec %= 1000000000;
        while (g_log.count < FLUSH_AT && !g_log.done)
            if (cnd_timedwait(&g_log.nonempty, &g_log.lock, &deadline) != thrd_success)
                break;
        while (g_log.count > 0) {
            memcpy(line, g_log.queue[g_log.head], LINE);
            g_log.head = (g_log.head + 1) % QLEN;
            g_log.count--;
            mtx_unlock(&g_log.lock);
            g_log.sink->write(line);
            mtx_lock(&g_log.lock);
        }
    }
    mtx_unlock(&g_log.lock);
    return 0;
}

static void log_line(const char *msg)
{
    mtx_lock(&g_log.lock);
    if (g_log.count < QLEN) {
        snprintf(g_log.queue[(g_log.head + g_log.count) % QLEN], LINE, "%s", msg);
        if (++g_log.count >= FLUSH_AT)
            cnd_signal(&g_log.nonempty);
    }
    mtx_unlock(&g_log.lock);
}

int main(void)
{
    thrd_t t;
    mtx_init(&g_log.lock, mtx_plain);
    cnd_init(&g_log.nonempty);
    thrd_create(&t, flusher, NULL);
    log_line("service starting");
    g_log.sink = &stdout_sink;       /* from the config, once it is parsed */
    log_line("listening on :8080");
    mtx_lock(&g_log.lock);
    g_log.done = 1;                  /* shut down: flush what is left */
    cnd_signal(&g_log.nonempty);
    mtx_unlock(&g_log.lock);
    thrd_join(t, NULL);
    return 0;
}
