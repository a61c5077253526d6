import numpy as np
import torch
import torch.nn.functional as F

labels = np.array([0, 2, 1, 3])
one_hot = np.eye(4)[labels]
print(one_hot)
print(F.one_hot(torch.from_numpy(labels), num_classes=4))
print(F.one_hot(torch.tensor([1, 0, 2])))
print(np.argmax(one_hot, axis=1))
