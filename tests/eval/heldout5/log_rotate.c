// ctrlsched-truth: class=order_violation fails=hang
// ctrlsched-truth: cause g_rotate_requested W1@60 W2@29 R3@35
// Log rotation: main writes the session's log lines and then asks the rotator thread to archive
// them. The housekeeping thread opens the session's bookkeeping: it announces itself, zeroes the
// session counters and drops any rotate request still pending from an earlier session.
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>

#define LINES 6

mtx_t g_log_mu;
int g_active_lines;
int g_active_bytes;
int g_archived_lines;
int g_session_id;
int g_dropped_lines;
atomic_int g_housekeeper_up;
atomic_int g_rotate_requested;

static int housekeeping(void *arg) {
  (void)arg;
  atomic_store(&g_housekeeper_up, 1);
  mtx_lock(&g_log_mu);
  g_session_id++;
  g_dropped_lines = 0;
  mtx_unlock(&g_log_mu);
  atomic_store(&g_rotate_requested, 0);
  return 0;
}

static int rotator(void *arg) {
  (void)arg;
  while (!atomic_load(&g_rotate_requested))
    thrd_yield();
  mtx_lock(&g_log_mu);
  g_archived_lines += g_active_lines;
  g_active_lines = 0;
  g_active_bytes = 0;
  mtx_unlock(&g_log_mu);
  return 0;
}

int main(void) {
  mtx_init(&g_log_mu, mtx_plain);
  thrd_t hk, rot;
  thrd_create(&rot, rotator, NULL);
  thrd_create(&hk, housekeeping, NULL);
  while (!atomic_load(&g_housekeeper_up))  // no logging before the session is open
    thrd_yield();
  char line[48];
  for (int i = 0; i < LINES; ++i) {
    int n = snprintf(line, sizeof line, "request %d served in %d us", i, 40 + 7 * i);
    mtx_lock(&g_log_mu);
    g_active_lines++;
    g_active_bytes += n;
    mtx_unlock(&g_log_mu);
  }
  atomic_store(&g_rotate_requested, 1);
  thrd_join(rot, NULL);
  thrd_join(hk, NULL);
  assert(g_archived_lines == LINES && g_active_lines == 0);
  printf("session %d: archived %d lines\n", g_session_id, g_archived_lines);
  mtx_destroy(&g_log_mu);
  return 0;
}
