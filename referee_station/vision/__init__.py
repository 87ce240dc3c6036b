"""Reading the cards on the standard cloth from an overhead camera (issue 5).

``referee_station.vision.geometry`` holds the cloth layout and the homographies, ``referee_station.render`` renders
realistic frames with their ground truth, ``referee_station.vision.reader`` turns a frame and its calibration into the
cards of each seat's play area. The station side needs only numpy, OpenCV and onnxruntime.
"""
