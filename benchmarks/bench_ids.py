"""Case selection for the peers: compare_cupy.py --ids sets CUSCI_BENCH_IDS (comma-separated case ids), and
a peer times a case only when wanted() says so (all cases when the variable is unset or empty)."""
import os


def wanted(*ids):
    """True when no selection is set or any of `ids` is selected."""
    sel = os.environ.get("CUSCI_BENCH_IDS", "")
    if not sel:
        return True
    chosen = {s.strip() for s in sel.split(",") if s.strip()}
    return any(i in chosen for i in ids)
