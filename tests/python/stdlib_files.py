import os


def expect_error(exc_type, call, *args):
    # each failing call of this file prints CPython's exception type and message
    try:
        call(*args)
    except exc_type as e:
        print(f"{exc_type.__name__}:", e)


os.makedirs("tmp_data_dir/sub", exist_ok=True)
os.makedirs("tmp_data_dir/sub", exist_ok=True)
path = os.path.join("tmp_data_dir", "sub", "notes.txt")
print(path, os.path.exists(path), os.path.isdir("tmp_data_dir"))
with open(path, "w") as f:
    n = f.write("line one\n")
    f.write("line two\nthird")
    f.writelines(["\n", "4th\n"])
print(n, os.path.exists(path), os.path.isfile(path), os.path.isfile("tmp_data_dir"))
with open(path) as f:
    print(repr(f.readline()))
    print(repr(f.readline()))
    print(f.readlines())
with open(path) as f:
    for i, line in enumerate(f):
        print(i, line.rstrip())
with open(path, "a") as f:
    f.write("appended\n")
with open(path, "r") as f:
    text = f.read()
print(text.splitlines(), len(text))
f = open(path)
print(f.read(4), f.read(4), f.closed)
f.close()
print(f.closed)
expect_error(ValueError, f.read)
print(sorted(os.listdir("tmp_data_dir")), os.listdir("tmp_data_dir/sub"))
print(os.path.basename(path), os.path.dirname(path), os.path.split(path))
print(os.path.splitext("model.best.pth"), os.path.splitext(".bashrc"), os.path.splitext("a/b"))
print(os.path.join("a", "/b", "c"), os.path.join("a/", "b"), os.path.join("", "x"))
for bad in ["missing.txt", "tmp_data_dir/none/x.txt"]:
    expect_error(FileNotFoundError, open, bad)
expect_error(IsADirectoryError, open, "tmp_data_dir")
expect_error(FileExistsError, os.makedirs, "tmp_data_dir")
expect_error(FileNotFoundError, os.mkdir, "tmp_data_dir/a/b")
with open(path, "w") as f:
    try:
        f.read()
    except OSError as e:
        print(type(e).__name__, e)
    expect_error(TypeError, f.write, 3)
expect_error(ValueError, open, path, "rw")
with open(path, "x" if not os.path.exists(path) else "w") as f:
    f.write("")
with open(path) as f:
    print(repr(f.read()))
os.remove(path)
os.rmdir("tmp_data_dir/sub")
os.rmdir("tmp_data_dir")
print(os.path.exists("tmp_data_dir"))
open("nope/x.txt", "w")
