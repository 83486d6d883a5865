// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause stopping,req_queue R1@43:stopping W2@80:stopping W2@83:req_queue R1@45:req_queue
/*
 * shutdown_flag.c - a request service thread polling a queue until told to stop.
 * Bug: at shutdown main raises "stopping" and immediately tears the queue
 * down (freeing it and clearing req_queue) without joining the service
 * thread first.  A service thread that has already passed its stopping
 * check goes on to dereference req_queue, which is now NULL (SIGSEGV).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define NREQUESTS 16

struct request { int id; struct request *next; };
struct queue { struct request *head, *tail; int served; };

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static struct queue *req_queue;
static atomic_int stopping;
static long checksum;

static void submit(int id)
{
    struct request *r = malloc(sizeof *r);
    r->id = id;
    r->next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (req_queue->tail)
        req_queue->tail->next = r;
    else
        req_queue->head = r;
    req_queue->tail = r;
    pthread_mutex_unlock(&queue_lock);
}

static void *service_main(void *arg)
{
    (void)arg;
    while (!atomic_load(&stopping)) {
        pthread_mutex_lock(&queue_lock);
        struct request *r = req_queue->head;
        if (r) {
            req_queue->head = r->next;
            if (!r->next)
                req_queue->tail = NULL;
            req_queue->served++;
        }
        pthread_mutex_unlock(&queue_lock);
        if (!r) {
            sched_yield();
            continue;
        }
        checksum += r->id * 7;   /* "handle" the request */
        free(r);
    }
    return NULL;
}

int main(void)
{
    pthread_t svc;
    int served = 0;

    req_queue = calloc(1, sizeof *req_queue);
    pthread_create(&svc, NULL, service_main, NULL);
    for (int i = 1; i <= NREQUESTS; i++)
        submit(i);

    while (served < NREQUESTS) {        /* wait for the queue to drain */
        pthread_mutex_lock(&queue_lock);
        served = req_queue->served;
        pthread_mutex_unlock(&queue_lock);
        sched_yield();
    }

    atomic_store(&stopping, 1);
    pthread_mutex_lock(&queue_lock);    /* tear the queue down */
    free(req_queue);
    req_queue = NULL;
    pthread_mutex_unlock(&queue_lock);

    pthread_join(svc, NULL);
    printf("served %d requests, checksum %ld\n", served, checksum);
    return 0;
}
