class BaseErr(Exception):
    pass
class ShapeError(BaseErr):
    def __init__(self, got, want):
        super().__init__(f"got {got}, want {want}")
print("checking")
raise ShapeError((2, 3), (3, 2))
