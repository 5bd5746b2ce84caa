// The Linux headers Swift's Glibc module leaves out: epoll(7) and eventfd(2),
// and what <spawn.h> declares only under _GNU_SOURCE.
// Only declarations: everything here is in the C library the daemon links.
#include <spawn.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

// glibc 2.34 and later: the child closes every descriptor from `from` up.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
