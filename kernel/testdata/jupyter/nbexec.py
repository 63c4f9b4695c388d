"""Execute or validate notebooks with Jupyter's own libraries.

    /usr/bin/python3 nbexec.py execute KERNEL_NAME IN.ipynb OUT.ipynb
    /usr/bin/python3 nbexec.py validate FILE.ipynb...

execute runs IN through nbclient (what `jupyter nbconvert --execute` uses)
with the installed kernelspec KERNEL_NAME, in IN's directory, and writes the
executed notebook to OUT; it fails on the first failing cell that is not
tagged raises-exception. validate checks files against the nbformat schema.
Run with Debian's /usr/bin/python3 (python3-nbclient, python3-nbformat).
"""

import os
import sys

import nbformat


def execute(kernel, src, dst):
    from nbclient import NotebookClient

    nb = nbformat.read(src, as_version=4)
    client = NotebookClient(nb, kernel_name=kernel, timeout=600, allow_errors=False,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}})
    client.execute()
    nbformat.write(nb, dst)


def validate(paths):
    for path in paths:
        nbformat.validate(nbformat.read(path, as_version=4))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "execute":
        execute(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "validate":
        validate(sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
