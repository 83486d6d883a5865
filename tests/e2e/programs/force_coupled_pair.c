/* force_coupled_pair.c - a two-variable bug: a shipment's weight and its parcel count are updated
 * in separate critical sections (forcing classes, issue 10).
 *
 * The loader books each parcel's weight, then its count. The auditor snapshots both, each under
 * its lock, and checks that every parcel weighs 5 kg. It sees a weight that includes a parcel the
 * count does not (it read the weight after the booking and the count before), or the other way
 * round. Either half alone is harmless: the bug is the pair.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define PARCEL_KG 5

static pthread_mutex_t weight_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static long weight_kg; /* guarded by weight_lock */
static long parcels;   /* guarded by count_lock */

static void book_parcel(void) {
  pthread_mutex_lock(&weight_lock);
  weight_kg += PARCEL_KG;
  pthread_mutex_unlock(&weight_lock);
  pthread_mutex_lock(&count_lock);
  parcels++;
  pthread_mutex_unlock(&count_lock);
}

static void *loader(void *arg) {
  (void)arg;
  for (int parcel = 0; parcel < 2; parcel++)
    book_parcel();
  return NULL;
}

static void *auditor(void *arg) {
  (void)arg;
  pthread_mutex_lock(&weight_lock);
  long weight = weight_kg;
  pthread_mutex_unlock(&weight_lock);
  pthread_mutex_lock(&count_lock);
  long count = parcels;
  pthread_mutex_unlock(&count_lock);
  printf("audit: %ld parcels, %ld kg\n", count, weight);
  assert(weight == PARCEL_KG * count && "shipment weight does not match its parcels");
  return NULL;
}

int main(void) {
  pthread_t load, audit;
  pthread_create(&load, NULL, loader, NULL);
  pthread_create(&audit, NULL, auditor, NULL);
  pthread_join(load, NULL);
  pthread_join(audit, NULL);
  return 0;
}
