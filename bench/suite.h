/* assay run */
#ifndef ASSAY_SUITE_H
#define ASSAY_SUITE_H

int cmd_run(int argc, char **argv);

#endif
