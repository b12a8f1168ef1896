"""toolio.py - file output shared by the data generators in tools/.

The generators rewrite committed data files; a crash or a full disk must
never leave one half-written, so every write goes through a temporary file
in the same directory, fsync and rename (as ec2fit's own cache does).
"""
import os
import tempfile


def write_atomic(out, text, prefix=".tmp."):
    """Writes `text` (UTF-8, "\\n" line ends) to `out` atomically."""
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
