#include <spawn.h>
// glibc declares these only with _GNU_SOURCE, which the Swift Glibc module is not built with.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict, const char *__restrict);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
