# SPDX-License-Identifier: GPL-3.0-or-later
# data/: what bbsize installs under $(pkgdatadir) (where src/formats/systems.c,
# src/devload.c, src/topoload.c, src/cmd_trace.c and the README look for
# them), and example inputs shipped with the sources.
workloadsdir = $(pkgdatadir)/workloads
dist_workloads_DATA = data/workloads/default.csv \
	data/workloads/paper-random.csv data/workloads/checkpoint-heavy.csv \
	data/workloads/read-heavy.csv data/workloads/mixed.csv
systemsdir = $(pkgdatadir)/systems
dist_systems_DATA = \
	data/systems/aurora.conf data/systems/cori.conf data/systems/frontier.conf \
	data/systems/mfnetsim.conf data/systems/oakforest-pacs.conf \
	data/systems/perlmutter.conf data/systems/summit.conf data/systems/theta.conf \
	data/systems/trinity.conf
darshandir = $(pkgdatadir)/darshan
dist_darshan_DATA = \
	data/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt \
	data/darshan/bbthemis-namd2-tacc-32p.dxt-parser.txt data/darshan/LICENSE \
	data/darshan/README

devicesdir = $(pkgdatadir)/devices
dist_devices_DATA = data/devices/seagate-st2000nx0253.dev \
	data/devices/intel-d3-s4510.dev data/devices/mfnetsim-bb.dev \
	data/devices/codes-histogram-example.dev

networkdatadir = $(pkgdatadir)/network
dist_networkdata_DATA = data/network/README \
	data/network/dally-1056-intra data/network/dally-1056-inter \
	data/network/dally-1056-min.conf data/network/dally-1056-par.conf \
	data/network/dfdally_72.conf data/network/cont-1d-1056-mixwkld.conf \
	data/network/rand_node0-1d-1056-mixwkld.conf

vefdir = $(pkgdatadir)/vef
dist_vef_DATA = \
	data/vef/README.md \
	data/vef/homasim_DCTCP_MsgSizeDist.txt \
	data/vef/homasim_DCTCP_MsgSizeDist_Original.txt \
	data/vef/homasim_FacebookKeyValueMsgSizeDist.txt \
	data/vef/homasim_Facebook_CacheFollowerDist_IntraCluster.txt \
	data/vef/homasim_Facebook_HadoopDist_All.txt \
	data/vef/homasim_Facebook_WebServerDist_IntraCluster.txt \
	data/vef/homasim_Google_AllRPC.txt \
	data/vef/homasim_Google_SearchRPC.txt \
	data/vef/homamodule_w1.csv data/vef/homamodule_w2.csv data/vef/homamodule_w3.csv \
	data/vef/homamodule_w4.csv data/vef/homamodule_w5.csv

scenariosdir = $(pkgdatadir)/scenarios
dist_scenarios_DATA = \
	data/scenarios/mfnetsim-checkpoint-alone-cont-adp.ini \
	data/scenarios/mfnetsim-checkpoint-alone-cont-min.ini \
	data/scenarios/mfnetsim-checkpoint-alone-rand-adp.ini \
	data/scenarios/mfnetsim-checkpoint-alone-rand-min.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-cont-adp.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-cont-min.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-rand-adp.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-rand-min.ini \
	data/scenarios/mfnetsim-milc-alone-cont-adp.ini \
	data/scenarios/mfnetsim-milc-alone-cont-min.ini \
	data/scenarios/mfnetsim-milc-alone-rand-adp.ini \
	data/scenarios/mfnetsim-milc-alone-rand-min.ini \
	data/scenarios/mfnetsim-nekbone-alone-cont-adp.ini \
	data/scenarios/mfnetsim-nekbone-alone-cont-min.ini \
	data/scenarios/mfnetsim-nekbone-alone-rand-adp.ini \
	data/scenarios/mfnetsim-nekbone-alone-rand-min.ini \
	data/scenarios/mfnetsim-w1-mix-cont-adp.ini \
	data/scenarios/mfnetsim-w1-mix-cont-min.ini \
	data/scenarios/mfnetsim-w1-mix-rand-adp.ini \
	data/scenarios/mfnetsim-w1-mix-rand-min.ini \
	data/scenarios/mfnetsim-w2-mix-cont-adp.ini \
	data/scenarios/mfnetsim-w2-mix-cont-min.ini \
	data/scenarios/mfnetsim-w2-mix-rand-adp.ini \
	data/scenarios/mfnetsim-w2-mix-rand-min.ini \
	data/scenarios/validate-small.ini data/scenarios/traces-small.ini
EXTRA_DIST += data/scenarios/mkscenarios.sh data/slurm/bbsize-sweep.sbatch \
	data/traces/mpi-ring.vef data/traces/dcnw-google.vef \
	data/traces/flows.vef data/traces/horovod-alexnet.vef data/traces/horovod-small.vef
