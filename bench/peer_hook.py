#!/usr/bin/env python3
"""The peer of `trail hook` in the benchmarks: a Python hook doing the same minimal work —
read the JSON payload, load a 2 KB YAML state file with PyYAML, append one JSONL line, print
JSON. (Operator's Edge's own Python pre-tool hook does much more and takes ~285 ms here.)"""
import json
import os
import sys

import yaml

payload = json.load(sys.stdin)
state_path = os.path.join(os.environ.get("PEER_DIR", "."), "active_context.yaml")
with open(state_path) as f:
    state = yaml.safe_load(f)
line = {"tool": payload.get("tool_name"), "command": payload.get("tool_input", {}).get("command"),
        "mode": state.get("mode")}
with open(os.path.join(os.environ.get("PEER_DIR", "."), "session_log.jsonl"), "a") as f:
    f.write(json.dumps(line) + "\n")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse"}}))
