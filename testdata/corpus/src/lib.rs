// Empty: the corpus is its dependencies' sources.
