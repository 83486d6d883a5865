/* Looks at what main's stack, and a new thread's, hold before the test writes them: the bytes
 * their uninitialized locals would read. A test that reads an uninitialized member (a worker started by a constructor that
 * reads a field the constructor has not set yet, corpus server_ctor) sees those bytes. Whatever
 * ctrlsched's shim left there while it started up (pointers to its strategy objects, their
 * vtables) must not be among them: the test would call into the scheduler through them, and it
 * would see other pointers in a seed run, a replay and a --localize run.
 *
 * Exits 3 and names the first word that points into the shim's image, or to a heap block whose
 * first word does (a C++ object of the shim), below main's frame or below a thread's first. Without ctrlsched, and with a shim that cleans up
 * after its start-up, it exits 0. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { kWords = 4096 }; /* 32 KiB: deeper than the shim's start-up reaches */

static int in_shim(uintptr_t word) {
  Dl_info info;
  if (word < 4096 || dladdr((void *)word, &info) == 0 || info.dli_fname == NULL) return 0;
  return strstr(info.dli_fname, "libctrlsched") != NULL;
}

static int heap_range(uintptr_t *lo, uintptr_t *hi) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return 0;
  char line[512];
  int found = 0;
  while (!found && fgets(line, sizeof line, maps) != NULL) {
    unsigned long a, b;
    if (strstr(line, "[heap]") != NULL && sscanf(line, "%lx-%lx", &a, &b) == 2) {
      *lo = a;
      *hi = b;
      found = 1;
    }
  }
  fclose(maps);
  return found;
}

static uintptr_t g_main_words[kWords], g_thread_words[kWords];

/* Copies a fresh frame before any other call writes below the caller: not inlined, so the stack
 * array stays. */
__attribute__((noinline)) static void copy_fresh_frame(uintptr_t *copy) {
  uintptr_t frame[kWords]; /* deliberately never written */
  const volatile uintptr_t *words = frame;
  __asm__ volatile("" : "+r"(words)); /* hide from the compiler that nothing wrote them */
  for (int i = 0; i < kWords; ++i) copy[i] = words[i];
}

static void *thread_start(void *arg) {
  (void)arg;
  copy_fresh_frame(g_thread_words);
  return NULL;
}

static int report_residue(const char *where, const uintptr_t *words, uintptr_t heap_lo, uintptr_t heap_hi) {
  for (int i = 0; i < kWords; ++i) {
    const uintptr_t word = words[i];
    const int to_heap_object = heap_hi > heap_lo && word >= heap_lo && word <= heap_hi - sizeof word &&
                               word % sizeof word == 0 && in_shim(*(const uintptr_t *)word);
    if (in_shim(word) || to_heap_object) {
      fprintf(stderr, "stack_residue: %d bytes below %s holds %#lx, a pointer %s the shim\n",
              (kWords - i) * (int)sizeof word, where, (unsigned long)word,
              to_heap_object ? "to a heap object of" : "into");
      return 1;
    }
  }
  return 0;
}

int main(void) {
  copy_fresh_frame(g_main_words);
  pthread_t thread;
  if (pthread_create(&thread, NULL, thread_start, NULL) != 0 || pthread_join(thread, NULL) != 0) return 2;
  uintptr_t heap_lo = 0, heap_hi = 0;
  heap_range(&heap_lo, &heap_hi);
  const int in_main = report_residue("main's frame", g_main_words, heap_lo, heap_hi);
  const int in_thread = report_residue("a thread's first frame", g_thread_words, heap_lo, heap_hi);
  return in_main || in_thread ? 3 : 0;
}
