"""PySide6 views of the console models. Each view gets its model in ``__init__``, subscribes to
the model's signals and sends commands through the model; none holds state of its own."""
