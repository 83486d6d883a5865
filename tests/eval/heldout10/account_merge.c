// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause checking,savings lock1@68:checking lock2@68:savings lock2@69:checking lock1@69:savings
// ctrlsched-truth: cause checking,savings lock1@68:savings lock2@68:checking lock2@69:savings lock1@69:checking
/*
 * account_merge.c - merge queued transfer batches into customer account records.
 *
 * Transfers arrive in batches from different channels (online banking, the
 * nightly sweep) and each channel has its own merge worker.  Every account
 * record carries its own mutex so unrelated customers can be updated in
 * parallel; a transfer holds both records so the debit, the credit and the
 * two history entries are applied together.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define HISTORY_LEN 16

struct posting {
    long cents;          /* signed: negative is a debit */
    unsigned seq;        /* batch sequence number, shared by both legs */
};

struct account {
    pthread_mutex_t lock;
    const char *id;
    long balance_cents;
    unsigned nposted;
    unsigned nrejected;
    struct posting history[HISTORY_LEN];
};

static struct account checking = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .id = "CHK-004217",
    .balance_cents = 152000,
};

static struct account savings = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .id = "SAV-004217",
    .balance_cents = 940000,
};

struct transfer_batch {
    const char *channel;
    struct account *from;
    struct account *to;
    const long *amounts;
    unsigned count;
    unsigned first_seq;
    unsigned applied;
};

static void record_posting(struct account *acct, long cents, unsigned seq)
{
    struct posting *p = &acct->history[acct->nposted % HISTORY_LEN];

    p->cents = cents;
    p->seq = seq;
    acct->nposted++;
}

/* Hold both records for the duration of one transfer. */
static void lock_accounts(struct account *from, struct account *to)
{
    pthread_mutex_lock(&from->lock);
    pthread_mutex_lock(&to->lock);
}

static void unlock_accounts(struct account *from, struct account *to)
{
    pthread_mutex_unlock(&to->lock);
    pthread_mutex_unlock(&from->lock);
}

/*
 * Move cents from one account to the other.  Returns 0 when the source
 * cannot cover the amount; the transfer is then counted as rejected on the
 * source account and nothing else changes.
 */
static int apply_transfer(struct account *from, struct account *to,
                          long cents, unsigned seq)
{
    int ok = 0;

    lock_accounts(from, to);
    if (from->balance_cents >= cents) {
        from->balance_cents -= cents;
        to->balance_cents += cents;
        record_posting(from, -cents, seq);
        record_posting(to, cents, seq);
        ok = 1;
    } else {
        from->nrejected++;
    }
    unlock_accounts(from, to);
    return ok;
}

static void *merge_worker(void *arg)
{
    struct transfer_batch *batch = arg;

    for (unsigned i = 0; i < batch->count; i++) {
        if (apply_transfer(batch->from, batch->to, batch->amounts[i],
                           batch->first_seq + i))
            batch->applied++;
    }
    return NULL;
}

/* Customer-initiated moves into savings. */
static const long online_amounts[] = { 2500, 10000, 750 };
/* Sweep back to checking to cover tomorrow's scheduled payments. */
static const long sweep_amounts[] = { 41000, 1200, 3300 };

int main(void)
{
    const long total_before = checking.balance_cents + savings.balance_cents;
    struct transfer_batch online = {
        .channel = "online",
        .from = &checking, .to = &savings,
        .amounts = online_amounts,
        .count = sizeof online_amounts / sizeof online_amounts[0],
        .first_seq = 1000,
    };
    struct transfer_batch sweep = {
        .channel = "sweep",
        .from = &savings, .to = &checking,
        .amounts = sweep_amounts,
        .count = sizeof sweep_amounts / sizeof sweep_amounts[0],
        .first_seq = 2000,
    };
    pthread_t t_online, t_sweep;

    if (pthread_create(&t_online, NULL, merge_worker, &online) != 0 ||
        pthread_create(&t_sweep, NULL, merge_worker, &sweep) != 0) {
        perror("pthread_create");
        return EXIT_FAILURE;
    }
    pthread_join(t_online, NULL);
    pthread_join(t_sweep, NULL);

    /* Money is only moved, never created. */
    assert(checking.balance_cents + savings.balance_cents == total_before);
    assert(checking.nposted == savings.nposted);
    assert(checking.nposted == online.applied + sweep.applied);

    printf("%s %ld.%02ld  %s %ld.%02ld  (%u %s, %u %s applied)\n",
           checking.id, checking.balance_cents / 100, checking.balance_cents % 100,
           savings.id, savings.balance_cents / 100, savings.balance_cents % 100,
           online.applied, online.channel, sweep.applied, sweep.channel);
    return 0;
}
