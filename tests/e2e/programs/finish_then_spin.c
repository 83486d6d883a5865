/* For the Ctrl-C tests: the first N runs of this program (N = argv[2]) end at once, every other
 * one failing an assertion; every later run spins forever. Runs are counted by appending a line
 * to the file argv[1] (plain open/write: not scheduling points), so the test knows when N runs
 * have finished and the ones in flight will never end by themselves. A run's place is the file
 * offset its own O_APPEND write left (atomic with the write), not the file's size read after it:
 * two runs started together could both read the size after the second write and share a place,
 * which made the test see one failure fewer than it expects. */
#include <assert.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long spins;

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return 2;
  if (write(fd, "r\n", 2) != 2) return 2;
  const off_t end_of_own_write = lseek(fd, 0, SEEK_CUR);
  close(fd);
  if (end_of_own_write < 0) return 2;
  const long run = (long)end_of_own_write / 2; /* 1-based: this run's place among all runs */
  const long finishing = atol(argv[2]);
  if (run > finishing) {
    for (;;) spins++;
  }
  assert(run % 2 == 1); /* even runs fail */
  return 0;
}
