# bench/walk.py: the files a bbsize command walks through, in time order,
# recorded by gdb (run by bench/walks.sh):
#   WALK_OUT=FILE gdb -batch -x bench/walk.py --args src/bbsize ...
# A breakpoint that never stops is set on every function of the source
# files under WALK_DIRS (default "src/ analytic/"), inlined ones included;
# each entry writes "FILE FUNCTION CALLER" to WALK_OUT (CALLER: the file
# of the calling frame).  After the first entry
# of WALK_START (default bba_front_idle), the first entry of a function in
# WALK_STOP (default: the solvers) writes "# stop", then "# stack: " and
# the files of the call stack there, outermost first, and ends the run; a
# folder in WALK_STOP ("src/": back in the command) stops before the first
# entry of a function of that folder after the start, and a function
# written "^FUNCTION" stops before its first entry after the start.
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re

import gdb

START = os.environ.get("WALK_START", "bba_front_idle")
STOPS = os.environ.get("WALK_STOP", "bba_fftwh_eval bba_onoff_eval bba_stationary_solve").split()
DIRS = os.environ.get("WALK_DIRS", "src/ analytic/").split()
out = open(os.environ.get("WALK_OUT", "/dev/stdout"), "w")
started = [False]


def caller_file():
    """The source file of the frame that called the one stopped in ("-":
    none known), so that a walk can tell a library calling a function of
    src/ (a callback) from src/ calling it (control back in the command)."""
    try:
        f = gdb.newest_frame().older()
        while f is not None:
            sal = f.find_sal()
            if sal.symtab is not None:
                return sal.symtab.filename
            f = f.older()
    except gdb.error:
        pass
    return "-"


class Entry(gdb.Breakpoint):
    def __init__(self, fname, fn):
        super().__init__("%s:%s" % (fname, fn), internal=True)
        self.fname, self.fn = fname, fn

    def stop(self):
        if self.fn == START:
            started[0] = True
        back = started[0] and any(d.endswith("/") and self.fname.startswith(d) for d in STOPS)
        if back or (started[0] and "^" + self.fn in STOPS):
            # back in that folder, or at that function: the walk ended before this entry
            out.write("# stop: at %s %s\n" % (self.fname, self.fn))
            out.flush()
            return True
        out.write("%s %s %s\n" % (self.fname, self.fn, caller_file()))
        if started[0] and self.fn in STOPS:
            out.write("# stop\n")
            out.flush()
            return True
        return False


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set breakpoint pending off")
cur, seen = None, set()
for line in gdb.execute("info functions -q", to_string=True).splitlines():
    m = re.match(r"File (.*):$", line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r"\d+:\s.*?\b([A-Za-z_]\w*)\(", line)
    if m and cur and any(cur.startswith(d) for d in DIRS) and (cur, m.group(1)) not in seen:
        seen.add((cur, m.group(1)))
        try:
            Entry(cur, m.group(1))
        except gdb.error:
            pass
gdb.execute("run")
try:
    f = gdb.newest_frame()
except gdb.error:
    f = None    # the program ended before a stop
frames = []
while f is not None:
    sal = f.find_sal()
    if sal.symtab is not None:
        frames.append(sal.symtab.filename)
    f = f.older()
stack = [x for i, x in enumerate(reversed(frames)) if i == 0 or x != frames[::-1][i - 1]]
out.write("# stack: %s\n" % " ".join(stack))
out.flush()
gdb.execute("kill")
