// Memory-heavy micro program: builds a linked list of 100k nodes in a scrambled order and walks
// it 30 times (pointer chasing: every step is an instrumented load from the heap), on the main
// thread — only one thread can run, so every access point is on the fast path.
#include <stdio.h>
#include <stdlib.h>

enum { NODES = 100000, WALKS = 30 };
struct node { struct node* next; long value; };

static void* walk(void* arg) {
  long* total = arg;
  struct node* nodes = malloc(sizeof(struct node) * NODES);
  struct node* head = NULL;
  for (int i = 0; i < NODES; i++) {
    // 7919 is coprime with NODES, so this visits every node once, far from its neighbours.
    struct node* n = &nodes[(i * 7919L) % NODES];
    n->value = i;
    n->next = head;
    head = n;
  }
  for (int w = 0; w < WALKS; w++)
    for (struct node* n = head; n; n = n->next) *total += n->value;
  free(nodes);
  return NULL;
}

int main(void) {
  static long total;  // not on the stack: its accesses count
  walk(&total);
  printf("%ld\n", total);
  return 0;
}
