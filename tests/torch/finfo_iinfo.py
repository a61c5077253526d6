import torch
for d in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.float]:
    f = torch.finfo(d)
    print(f)
    print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
for d in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.long]:
    i = torch.iinfo(d)
    print(i, i.bits, i.max, i.min, i.dtype)
print(torch.finfo())
print(torch.finfo(torch.float32).eps == torch.finfo(torch.float).eps)
x = torch.tensor([1.0])
print(torch.finfo(x.dtype).max > 1e38)
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
err(lambda: torch.finfo(torch.int32))
err(lambda: torch.iinfo(torch.float32))
err(lambda: torch.iinfo(torch.bool))
err(lambda: torch.finfo('float32'))
print(torch.clamp(torch.tensor([0.0, 1.0]), min=torch.finfo(torch.float32).eps))
