# io: in-memory streams and open(). StringIO and BytesIO live in the run's file system (_fs),
# through which torch.save / torch.load reach a BytesIO; cudatutor has no bytes type, so a
# BytesIO holds what torch.save wrote into it for torch.load to read back, and its bytes
# cannot be read.
from _fs import StringIO, BytesIO, TextIOWrapper, UnsupportedOperation, open

SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2
DEFAULT_BUFFER_SIZE = 8192
