class Animal:
    def __init__(self, name):
        self.name = name
    def speak(self):
        return "..."
    def describe(self):
        return f"{self.name} says {self.speak()}"
class Cat(Animal):
    def speak(self):
        return "meow"
class Lion(Cat):
    def speak(self):
        return "ROAR and " + super().speak()
for a in [Animal("generic"), Cat("tom"), Lion("leo")]:
    print(a.describe())
print(isinstance(Lion("x"), Animal))
