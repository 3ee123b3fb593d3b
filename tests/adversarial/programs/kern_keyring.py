"""Attack: leave a key in this uid's user keyring (argv[1]: its description) for a later run
or candidate, by add_key, request_key and keyctl."""
print("ATTACK-START", flush=True)
import ctypes
import errno
import os
import sys

description = sys.argv[1].encode()
libc = ctypes.CDLL(None, use_errno=True)
KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING = -4, -3
print("uid", os.getuid(), flush=True)


def report(label, rc):
    if rc < 0:
        print(f"{label}: {errno.errorcode.get(ctypes.get_errno(), '?')}", flush=True)
    else:
        print(f"ESCAPED {label} -> {rc}", flush=True)


for ring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING):
    report(f"add_key({ring})", libc.syscall(248, b"user", description, b"payload", 7, ring))
report("request_key", libc.syscall(249, b"user", description, None, KEY_SPEC_USER_KEYRING))
report("keyctl(GET_KEYRING_ID)", libc.syscall(250, 0, KEY_SPEC_USER_KEYRING, 1))
report("keyctl(JOIN_SESSION_KEYRING)", libc.syscall(250, 1, None))
