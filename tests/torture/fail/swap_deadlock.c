/* Failure kind: deadlock. Two threads swap the contents of two slots, each locking "its" slot
 * first: one locks a then b, the other b then a (ABBA). */
#include <pthread.h>
#include <stdio.h>

struct slot {
  pthread_mutex_t lock;
  int value;
};

static struct slot a = {PTHREAD_MUTEX_INITIALIZER, 1}, b = {PTHREAD_MUTEX_INITIALIZER, 2};

static void swap(struct slot *first, struct slot *second) {
  pthread_mutex_lock(&first->lock);
  pthread_mutex_lock(&second->lock); /* BUG: lock order depends on the caller */
  int t = first->value;
  first->value = second->value;
  second->value = t;
  pthread_mutex_unlock(&second->lock);
  pthread_mutex_unlock(&first->lock);
}

static void *forward(void *arg) {
  (void)arg;
  swap(&a, &b);
  return NULL;
}

static void *backward(void *arg) {
  (void)arg;
  swap(&b, &a);
  return NULL;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, NULL, forward, NULL);
  pthread_create(&t2, NULL, backward, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  printf("a=%d b=%d\n", a.value, b.value);
  return 0;
}
