/* help.h - help texts and the man page of the `wire` tool. */
#ifndef WIRE_TOOLS_HELP_H
#define WIRE_TOOLS_HELP_H

#include <stdio.h>

/* The usage lines of every command. */
void help_usage(FILE *f);
/* `wire help`: the commands with one line each. */
void help_overview(FILE *f);
/* `wire help COMMAND`; -1 if there is no such command. */
int help_command(FILE *f, const char *command);
/* 1 if `command` is a command of the tool. */
int help_known(const char *command);
/* The manual page wire.1 in roff (`wire help --man`). */
void help_man(FILE *f);

#endif
