class A:
    def m(self):
        return self.nope
A().m()
