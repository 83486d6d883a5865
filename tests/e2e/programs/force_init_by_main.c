/* force_init_by_main.c - an account module whose deposit is not atomic; main uses the same
 * function to credit the opening balance before it starts the tellers.
 *
 * Bug: lost update. account_deposit() reads the balance, computes, and stores it back in two
 *   statements with no lock; two tellers depositing at once can lose one deposit.
 * Root cause: the read in account_deposit (`long before = acct->balance;`) and the store
 *   (`acct->balance = after;`) of two tellers interleave: R1 - W2 - W1.
 * Failure: assertion in main (`book.balance == expected`).
 * Forcing trap: main executes the same read and store during initialization, before any teller
 *   exists; binding the pattern's first role to the first thread that reads binds main, which
 *   never deposits again, so the forced order cannot complete.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct account {
  long balance;
  long deposits;
};

static struct account book;

/* Not inlined: one copy of the code for every caller, as when it lives in another module. */
__attribute__((noinline)) static void account_deposit(struct account *acct, long amount) {
  long before = acct->balance;
  long after = before + amount;
  acct->balance = after;
  acct->deposits++;
}

static void *teller(void *arg) {
  account_deposit(&book, (long)(size_t)arg);
  return NULL;
}

int main(void) {
  account_deposit(&book, 100); /* opening balance, single-threaded */
  pthread_t a, b;
  pthread_create(&a, NULL, teller, (void *)(size_t)10);
  pthread_create(&b, NULL, teller, (void *)(size_t)20);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  long expected = 130;
  assert(book.balance == expected && "a deposit was lost");
  return 0;
}
