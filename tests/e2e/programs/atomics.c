/* The atomic TSan-ABI hooks perform their operations: three threads hammer atomics of every width
 * with every read-modify-write operation, compare-exchange in both its strong and weak forms
 * (gcc's bool-returning hooks, clang's value-returning ones) and, with gcc, 128-bit atomics.
 * Every total is checked at the end. Built instrumented; expected: passes under every
 * interleaving, and natively. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

enum { THREADS = 3, ROUNDS = 4, OPS = THREADS * ROUNDS };

static _Atomic uint8_t add8;
static _Atomic uint16_t add16;
static _Atomic uint32_t add32;
static _Atomic uint64_t add64;
static _Atomic uint64_t sub64 = 1000;
static _Atomic uint32_t or_bits;
static _Atomic uint32_t and_bits = 0xffffffffu;
static _Atomic uint32_t xor_bits;
static uint32_t nand_word = 0x5a5a5a5au;
static _Atomic uint32_t cas_strong;
static _Atomic uint32_t cas_weak;
static _Atomic uint32_t last_token;
static _Atomic uint64_t tokens_seen;
#if defined(__SIZEOF_INT128__) && !defined(__clang__)
static unsigned __int128 add128;
#endif

static void *worker(void *arg) {
  const unsigned id = (unsigned)(uintptr_t)arg;
  for (unsigned i = 0; i < ROUNDS; i++) {
    const unsigned bit = id * ROUNDS + i;
    atomic_fetch_add(&add8, 1);
    atomic_fetch_add(&add16, 1);
    atomic_fetch_add(&add32, 1);
    atomic_fetch_add(&add64, 1);
    atomic_fetch_sub(&sub64, 1);
    atomic_fetch_or(&or_bits, 1u << bit);
    atomic_fetch_and(&and_bits, ~(1u << bit));
    atomic_fetch_xor(&xor_bits, 1u << id);
    __atomic_fetch_nand(&nand_word, 0xffffffffu, __ATOMIC_SEQ_CST); /* flips every bit */
    uint32_t seen = atomic_load(&cas_strong);
    while (!atomic_compare_exchange_strong(&cas_strong, &seen, seen + 1)) {
    }
    seen = atomic_load(&cas_weak);
    while (!atomic_compare_exchange_weak(&cas_weak, &seen, seen + 1)) {
    }
    /* Every token written is read back exactly once: by a later exchange or at the end. */
    atomic_fetch_add(&tokens_seen, atomic_exchange(&last_token, bit + 1));
#if defined(__SIZEOF_INT128__) && !defined(__clang__)
    __atomic_fetch_add(&add128, 1, __ATOMIC_SEQ_CST);
#endif
  }
  return NULL;
}

int main(void) {
  pthread_t threads[THREADS];
  for (unsigned t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, worker, (void *)(uintptr_t)t);
  for (unsigned t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  assert(atomic_load(&add8) == OPS && atomic_load(&add16) == OPS);
  assert(atomic_load(&add32) == OPS && atomic_load(&add64) == OPS);
  assert(atomic_load(&sub64) == 1000 - OPS);
  assert(atomic_load(&or_bits) == (1u << OPS) - 1);
  assert(atomic_load(&and_bits) == ~((1u << OPS) - 1));
  assert(atomic_load(&xor_bits) == 0); /* each thread flipped its bit an even number of times */
  assert(__atomic_load_n(&nand_word, __ATOMIC_SEQ_CST) == 0x5a5a5a5au); /* flipped OPS (even) times */
  assert(atomic_load(&cas_strong) == OPS && atomic_load(&cas_weak) == OPS);
  assert(atomic_load(&tokens_seen) + atomic_load(&last_token) == (uint64_t)OPS * (OPS + 1) / 2);
#if defined(__SIZEOF_INT128__) && !defined(__clang__)
  assert(__atomic_load_n(&add128, __ATOMIC_SEQ_CST) == OPS);
#endif
  return 0;
}
