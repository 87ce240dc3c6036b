"""Reading the cards on the standard cloth from an overhead camera (issue 5).

``vision.geometry`` holds the cloth layout and the homographies, ``vision.synth`` renders realistic
frames with their ground truth, ``vision.reader`` turns a frame and its calibration into the cards of
each seat's play area. The station side needs only numpy, OpenCV and onnxruntime.
"""
