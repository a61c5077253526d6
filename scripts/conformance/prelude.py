"""The helpers every generated conformance script imports live in one file, written by hand:
tests/conformance/prelude.py (each script starts `from prelude import *`; its comments say what
a sample prints). generate.py runs its candidate samples against that same text, so what it
keeps is what the scripts will run.
"""
import pathlib

PATH = pathlib.Path(__file__).resolve().parent.parent.parent / "tests" / "conformance" / "prelude.py"
PRELUDE = PATH.read_text()
