#ifndef GESTUREMAP_CSPAWN_H
#define GESTUREMAP_CSPAWN_H

#include <sys/types.h>

/* Starts `argv[0]` (searched on PATH when it has no slash) without a shell:
 * in a process group of its own (so a timeout can kill everything it started),
 * stdin from /dev/null, stdout onto stderr (stdout carries only JSON), default
 * signal handling, in `cwd` when given. Returns 0 and the pid, or an errno. */
int gm_spawn(char *const argv[], char *const envp[], const char *cwd, pid_t *pid);

#endif
