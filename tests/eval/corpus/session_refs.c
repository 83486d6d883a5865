// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_refs R1@24 W2@28 W1@28
/* session_refs.c - a session object with an atomic reference count and a "last reference"
 * shortcut.
 *
 * session_put() destroys the session when it sees the count at 1 (its own reference) and
 * otherwise decrements. Both steps are atomic, the decision is not: two threads that both see
 * 2 both decrement, the count reaches 0 and nobody destroys the session (a leak, found by the
 * final check).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int g_refs = 2;
static atomic_int g_destroyed;

static void session_destroy(void) {
  atomic_fetch_add(&g_destroyed, 1);
}

static void session_put(void) {
  if (atomic_load(&g_refs) == 1) {
    session_destroy();
    return;
  }
  atomic_fetch_sub(&g_refs, 1);
}

static void *request(void *arg) {
  (void)arg;
  session_put();
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, request, NULL);
  pthread_create(&b, NULL, request, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("refs %d, destroyed %d\n", atomic_load(&g_refs), atomic_load(&g_destroyed));
  assert(atomic_load(&g_destroyed) == 1 && "session leaked");
  return 0;
}
