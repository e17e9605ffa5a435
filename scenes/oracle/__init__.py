"""The oracle: a program run by real PyTorch (when installed) and traced the way the engine
records it, so that ``render check`` can compare every value, gradient and grad_fn name."""
