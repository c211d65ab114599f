"""Project-wide test settings.

zeroconf listens and sends on every interface by default; the test suite must only ever
touch loopback (or network namespaces a test made), so the interface is pinned here for
every test and every child process the tests start.
"""

import os

os.environ.setdefault("ONO99_MDNS_INTERFACES", "127.0.0.1")
