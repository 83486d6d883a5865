// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause sessions R1@28 W2@29 W1@29
/* session_table.c - client threads take a free slot of a session table.
 *
 * open_session() scans for a free slot and marks it used without a lock, so two clients can
 * take the same slot, which main finds when it compares the slots they got. The request statistics
 * (g_requests, g_last_client) are also updated without a lock, on purpose: they are only
 * printed, and a lost increment there is harmless noise.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define SLOTS 4

struct session {
  int used;
  int owner;
};

static struct session sessions[SLOTS];
static long g_requests;   /* statistics only: racy on purpose */
static int g_last_client; /* statistics only: racy on purpose */

static int open_session(int client) {
  for (int i = 0; i < SLOTS; i++) {
    if (!sessions[i].used) {
      sessions[i].used = 1;
      sessions[i].owner = client;
      return i;
    }
  }
  return -1;
}

static void *client(void *arg) {
  int id = (int)(intptr_t)arg;
  g_requests++;
  g_last_client = id;
  int slot = open_session(id);
  g_requests++;
  return (void *)(intptr_t)slot;
}

int main(void) {
  pthread_t t[2];
  void *slot[2];
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, client, (void *)(i + 1));
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], &slot[i]);
  printf("%ld requests, last client %d\n", g_requests, g_last_client);
  assert(slot[0] != slot[1] && "session slot shared by two clients");
  return 0;
}
