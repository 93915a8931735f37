"""Skip-Bo. (Being written.)"""
