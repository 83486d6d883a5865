// ctrlsched-truth: class=atomicity fails=signal
// ctrlsched-truth: cause g_conn R1@25 W2@36 W2@38 R1@30
/* conn_close.c - a connection shared by a sender thread and an idle-timeout thread.
 *
 * send_line() checks that the connection is still open and then writes into its buffer. The
 * idle timer closes the connection and frees the buffer. The check and the use are not atomic
 * with respect to close: if the timer closes between them, the sender writes through a NULL
 * buffer pointer and the process crashes.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct connection {
  int open;
  char *buf;
  size_t used;
  size_t cap;
};

static struct connection g_conn;

static int send_line(struct connection *c, const char *line) {
  if (!c->open)
    return -1;
  size_t n = strlen(line);
  if (c->used + n > c->cap)
    return -1;
  memcpy(c->buf + c->used, line, n);
  c->used += n;
  return 0;
}

static void close_connection(struct connection *c) {
  c->open = 0;
  free(c->buf);
  c->buf = NULL;
}

static void *sender(void *arg) {
  (void)arg;
  send_line(&g_conn, "HELO example.org\r\n");
  send_line(&g_conn, "QUIT\r\n");
  return NULL;
}

static void *idle_timer(void *arg) {
  (void)arg;
  close_connection(&g_conn);
  return NULL;
}

int main(void) {
  g_conn.cap = 256;
  g_conn.buf = malloc(g_conn.cap);
  g_conn.open = 1;
  pthread_t s, t;
  pthread_create(&s, NULL, sender, NULL);
  pthread_create(&t, NULL, idle_timer, NULL);
  pthread_join(s, NULL);
  pthread_join(t, NULL);
  printf("sent %zu bytes before close\n", g_conn.used);
  return 0;
}
