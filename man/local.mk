# SPDX-License-Identifier: GPL-3.0-or-later
# man/: one page per command (1), per input format (5), and the MPI guide (7).
dist_man_MANS += man/bbsize.1 \
	man/bbsize-simulate.1 man/bbsize-validate.1 \
	man/bbsize-sweep.1 man/bbsize-report.1 man/bbsize-fit.1 man/bbsize-systems.1 \
	man/bbsize-device.1 man/bbsize-bbarch.1 man/bbsize-netload.1 \
	man/bbsize-trace.1 man/bbsize-compare.1 \
	man/bbsize-workload.5 man/bbsize-system.5 man/bbsize-device.5 \
	man/bbsize-topology.5 man/bbsize-scenario.5 man/bbsize-vef.5 man/bbsize-darshan.5 \
	man/bbsize-mpi.7
