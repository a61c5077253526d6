import torch
import torch.nn as nn

torch.manual_seed(5)
classes = ('plane', 'car', 'bird', 'cat')
net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 4))
images = torch.randn(20, 3, 4, 4)
labels = torch.randint(0, 4, (20,))

correct = 0
total = 0
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    outputs = net(images)
    _, predicted = torch.max(outputs.data, 1)
    total += labels.size(0)
    correct += (predicted == labels).sum().item()
    for label, prediction in zip(labels, predicted):
        if label == prediction:
            correct_pred[classes[label]] += 1
        total_pred[classes[label]] += 1

print(f'Accuracy of the network on the 20 test images: {100 * correct // total} %')
for classname, correct_count in correct_pred.items():
    accuracy = 100 * float(correct_count) / total_pred[classname]
    print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')
