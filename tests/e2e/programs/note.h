/* note(): a test program tells the e2e test which path an interleaving took, by appending one
 * word to the file named by its first argument (if any). The e2e test then checks that a path
 * was explored at least once across the seeds (e.g. a timed lock both timed out and succeeded),
 * which no single run can assert. Plain open/write: not scheduling points. */
#ifndef CTRLSCHED_E2E_NOTE_H
#define CTRLSCHED_E2E_NOTE_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const char *note_file;

static inline void note_init(int argc, char **argv) { note_file = argc > 1 ? argv[1] : NULL; }

static inline void note(const char *word) {
  if (!note_file) return;
  int fd = open(note_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  char line[64];
  size_t n = strlen(word);
  if (n > sizeof line - 2) n = sizeof line - 2;
  memcpy(line, word, n);
  line[n++] = '\n';
  ssize_t written = write(fd, line, n);
  (void)written;
  close(fd);
}

#endif
