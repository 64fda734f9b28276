#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Exit status 0 if FILE is well-formed XML whose root element is <svg>.

    is_svg.py FILE
"""
import sys
import xml.dom.minidom

sys.exit(0 if xml.dom.minidom.parse(sys.argv[1]).documentElement.tagName == "svg" else 1)
