class Base:
    def forward(self):
        raise NotImplementedError("subclass must implement forward")
class Good(Base):
    def forward(self):
        return "ok"
print(Good().forward())
Base().forward()
