#!/usr/bin/env python3
"""placeholder: print the verdict"""
import json, sys
rep = json.load(open(sys.argv[3]))
print("# " + json.dumps(rep["causes"])[:3000])
print("# accounted", rep.get("accounted_pct"))
