/* Looks at what main's stack holds before main writes it: the bytes its uninitialized locals
 * would read. A test that reads an uninitialized member (a worker started by a constructor that
 * reads a field the constructor has not set yet, corpus server_ctor) sees those bytes. Whatever
 * ctrlsched's shim left there while it started up (pointers to its strategy objects, their
 * vtables) must not be among them: the test would call into the scheduler through them, and it
 * would see other pointers in a seed run, a replay and a --localize run.
 *
 * Exits 3 and names the first word that points into the shim's image, or to a heap block whose
 * first word does (a C++ object of the shim). Without ctrlsched, and with a shim that cleans up
 * after its start-up, it exits 0. */
#define _GNU_SOURCE
#include <dlfcn.h>
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

static uintptr_t g_words[kWords];

/* Copies the fresh frame first, before any other call writes below main: not inlined, so the
 * stack array stays. */
__attribute__((noinline)) static void copy_fresh_frame(void) {
  uintptr_t frame[kWords]; /* deliberately never written */
  const volatile uintptr_t *words = frame;
  __asm__ volatile("" : "+r"(words)); /* hide from the compiler that nothing wrote them */
  for (int i = 0; i < kWords; ++i) g_words[i] = words[i];
}

int main(void) {
  copy_fresh_frame();
  uintptr_t heap_lo = 0, heap_hi = 0;
  heap_range(&heap_lo, &heap_hi);
  for (int i = 0; i < kWords; ++i) {
    const uintptr_t word = g_words[i];
    const int to_heap_object = heap_hi > heap_lo && word >= heap_lo && word <= heap_hi - sizeof word && word % sizeof word == 0 &&
                               in_shim(*(const uintptr_t *)word);
    if (in_shim(word) || to_heap_object) {
      fprintf(stderr, "stack_residue: word %d of a fresh frame below main holds %#lx, a pointer %s the shim\n", i,
              (unsigned long)word, to_heap_object ? "to a heap object of" : "into");
      return 3;
    }
  }
  return 0;
}
