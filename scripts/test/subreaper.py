#!/usr/bin/env python3
"""Runs a command as a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER, kept across exec): processes that
its children leave behind (a test runner's workers, a browser that outlived its driver) are reparented to it
rather than to init, and reaped by it, so that their CPU time is counted in its children's (what
scripts/test/stages.sh reports per stage). Usage: subreaper.py CMD [ARGS...] (execs CMD)."""

import ctypes
import os
import sys

PR_SET_CHILD_SUBREAPER = 36
if len(sys.argv) < 2:
    sys.exit("subreaper: no command (usage: subreaper.py CMD [ARGS...])")
try:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print(f"subreaper: prctl failed ({os.strerror(ctypes.get_errno())}); CPU times may miss orphans", file=sys.stderr)
except (OSError, AttributeError) as error:
    print(f"subreaper: {error}; CPU times may miss orphans", file=sys.stderr)
os.execvp(sys.argv[1], sys.argv[1:])
