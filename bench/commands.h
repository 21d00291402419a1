/* The commands of the assay CLI that are not engines (engines are in engines.c): each
 * takes the words after its name and returns the exit code. */
#ifndef ASSAY_COMMANDS_H
#define ASSAY_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_certify(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_mkresults(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_kexec(int argc, char **argv);
int cmd_serve(int argc, char **argv);


#endif
