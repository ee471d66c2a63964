#ifndef GESTUREMAP_CSPAWN_H
#define GESTUREMAP_CSPAWN_H

#include <sys/types.h>

/* Starts `argv[0]` (searched on PATH when it has no slash) without a shell:
 * in a process group of its own (so a timeout can kill everything it started),
 * stdin from /dev/null, stdout onto stderr (stdout carries only JSON), default
 * signal handling, in `cwd` when given. Returns 0 and the pid, or an errno. */
int gm_spawn(char *const argv[], char *const envp[], const char *cwd, pid_t *pid);

/* A pidfd for the child `pid` (pidfd_open(2), Linux 5.3 on): readable once it
 * has exited, so its exit is waited for in poll() with other descriptors.
 * Close-on-exec. Returns the descriptor, or -1 and errno (ENOSYS on older
 * kernels). Glibc only wraps the call from 2.36, hence the raw syscall. */
int gm_pidfd_open(pid_t pid);

#endif
