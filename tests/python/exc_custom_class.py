class AppError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
class NotFound(AppError):
    pass
try:
    raise NotFound(404, "no such page")
except AppError as e:
    print(type(e).__name__, e.code, e, e.args)
print(issubclass(NotFound, Exception))
try:
    raise AppError(500, "server")
except NotFound:
    print("wrong")
except AppError as e:
    print("right", e.code)
