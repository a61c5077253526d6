import torch

loss = torch.tensor(0.03125)
acc = torch.tensor(87)
print("loss: %.4f" % loss)
print("acc: %d%%" % acc)
print("{:.3f} / {}".format(loss.item(), acc.item()))
print("epoch {epoch:02d}".format(epoch=3))
print("%s" % torch.tensor([1, 2]))
print(str(loss.item()).rjust(12, "."))
print("{:>10}|{:<6}|{:^7}|".format("right", "left", "mid"))
