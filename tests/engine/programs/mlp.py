import torch
# A 4-4-4-1 multilayer perceptron written with scalar tensors: 36 weights, ReLU, no biases.
x0 = torch.tensor(1.0)
x1 = torch.tensor(0.5)
x2 = torch.tensor(0.25)
x3 = torch.tensor(2.0)
w1_0_0 = torch.tensor(3/8, requires_grad=True)
w1_0_1 = torch.tensor(3/8, requires_grad=True)
w1_0_2 = torch.tensor(3/8, requires_grad=True)
w1_0_3 = torch.tensor(3/8, requires_grad=True)
w1_1_0 = torch.tensor(1/8, requires_grad=True)
w1_1_1 = torch.tensor(1/8, requires_grad=True)
w1_1_2 = torch.tensor(1/8, requires_grad=True)
w1_1_3 = torch.tensor(1/8, requires_grad=True)
w1_2_0 = torch.tensor(4/8, requires_grad=True)
w1_2_1 = torch.tensor(4/8, requires_grad=True)
w1_2_2 = torch.tensor(-4/8, requires_grad=True)
w1_2_3 = torch.tensor(4/8, requires_grad=True)
w1_3_0 = torch.tensor(2/8, requires_grad=True)
w1_3_1 = torch.tensor(-2/8, requires_grad=True)
w1_3_2 = torch.tensor(2/8, requires_grad=True)
w1_3_3 = torch.tensor(2/8, requires_grad=True)
w2_0_0 = torch.tensor(5/8, requires_grad=True)
w2_0_1 = torch.tensor(5/8, requires_grad=True)
w2_0_2 = torch.tensor(5/8, requires_grad=True)
w2_0_3 = torch.tensor(-5/8, requires_grad=True)
w2_1_0 = torch.tensor(3/8, requires_grad=True)
w2_1_1 = torch.tensor(3/8, requires_grad=True)
w2_1_2 = torch.tensor(-3/8, requires_grad=True)
w2_1_3 = torch.tensor(3/8, requires_grad=True)
w2_2_0 = torch.tensor(1/8, requires_grad=True)
w2_2_1 = torch.tensor(-1/8, requires_grad=True)
w2_2_2 = torch.tensor(1/8, requires_grad=True)
w2_2_3 = torch.tensor(1/8, requires_grad=True)
w2_3_0 = torch.tensor(-4/8, requires_grad=True)
w2_3_1 = torch.tensor(4/8, requires_grad=True)
w2_3_2 = torch.tensor(4/8, requires_grad=True)
w2_3_3 = torch.tensor(4/8, requires_grad=True)
w3_0 = torch.tensor(2/8, requires_grad=True)
w3_1 = torch.tensor(2/8, requires_grad=True)
w3_2 = torch.tensor(-2/8, requires_grad=True)
w3_3 = torch.tensor(2/8, requires_grad=True)
y = torch.tensor(1.0)
a1_0 = w1_0_0 * x0 + w1_0_1 * x1 + w1_0_2 * x2 + w1_0_3 * x3
h1_0 = a1_0.relu()
a1_1 = w1_1_0 * x0 + w1_1_1 * x1 + w1_1_2 * x2 + w1_1_3 * x3
h1_1 = a1_1.relu()
a1_2 = w1_2_0 * x0 + w1_2_1 * x1 + w1_2_2 * x2 + w1_2_3 * x3
h1_2 = a1_2.relu()
a1_3 = w1_3_0 * x0 + w1_3_1 * x1 + w1_3_2 * x2 + w1_3_3 * x3
h1_3 = a1_3.relu()
a2_0 = w2_0_0 * h1_0 + w2_0_1 * h1_1 + w2_0_2 * h1_2 + w2_0_3 * h1_3
h2_0 = a2_0.relu()
a2_1 = w2_1_0 * h1_0 + w2_1_1 * h1_1 + w2_1_2 * h1_2 + w2_1_3 * h1_3
h2_1 = a2_1.relu()
a2_2 = w2_2_0 * h1_0 + w2_2_1 * h1_1 + w2_2_2 * h1_2 + w2_2_3 * h1_3
h2_2 = a2_2.relu()
a2_3 = w2_3_0 * h1_0 + w2_3_1 * h1_1 + w2_3_2 * h1_2 + w2_3_3 * h1_3
h2_3 = a2_3.relu()
yh = w3_0 * h2_0 + w3_1 * h2_1 + w3_2 * h2_2 + w3_3 * h2_3
L = (yh - y)**2
L.backward()
